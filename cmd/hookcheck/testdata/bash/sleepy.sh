#!/usr/bin/env bash
# BROKEN ON PURPOSE: it never answers. Its child process keeps stdout open,
# so only killing the whole process group ends the run.
cat >/dev/null
sleep 60
