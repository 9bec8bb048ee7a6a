#!/usr/bin/env bash
# BROKEN ON PURPOSE: it never answers. Its child process keeps stdout open
# and never ends, so only killing the whole process group ends the run.
# With SLEEPY_PIDS set, it appends the child's pid to that file.
cat >/dev/null
sleep 86400 &
if [ -n "$SLEEPY_PIDS" ]; then echo $! >>"$SLEEPY_PIDS"; fi
wait
