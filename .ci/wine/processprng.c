/*
 * processprng.c: a stand-in for Windows' bcryptprimitives.dll, built so
 * that Go programs run under Wine 8.
 *
 * Since Go 1.22 the Windows runtime fills its random numbers (crypto/rand,
 * map seeds, the scheduler) with ProcessPrng from bcryptprimitives.dll,
 * which Windows 10 and later export. Wine 8.0 (Debian 12's) ships a
 * bcryptprimitives.dll without that export, so every Go >= 1.22 binary
 * stops at start-up. Wine 9 added it; until CI's Wine has it, this DLL,
 * put in the prefix's system32, answers ProcessPrng with Wine's own
 * BCryptGenRandom (the system-preferred RNG), which is what the real
 * function does too: fill the buffer, always return TRUE.
 *
 * Build (mingw-w64, as .ci/steps/60-wine.sh does):
 *   x86_64-w64-mingw32-gcc -shared -O2 -s -o bcryptprimitives.dll \
 *     processprng.c processprng.def -lbcrypt
 */
#include <windows.h>
#include <bcrypt.h>

/* ProcessPrng fills pbData with cbData random bytes. BCryptGenRandom takes
 * a ULONG count, so a larger request is served in pieces. */
BOOL WINAPI ProcessPrng(PBYTE pbData, SIZE_T cbData)
{
    while (cbData > 0) {
        ULONG n = cbData > 0x40000000 ? 0x40000000 : (ULONG)cbData;
        if (!BCRYPT_SUCCESS(BCryptGenRandom(NULL, pbData, n, BCRYPT_USE_SYSTEM_PREFERRED_RNG)))
            return FALSE;
        pbData += n;
        cbData -= n;
    }
    return TRUE;
}
