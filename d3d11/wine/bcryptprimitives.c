/* bcryptprimitives.dll for Wine releases that lack it (Wine 8 and older).
 *
 * Rust's standard library imports ProcessPrng from bcryptprimitives.dll,
 * which Windows 10 and later have; Wine added it after 8.0. This one
 * exports ProcessPrng over advapi32's RtlGenRandom (SystemFunction036).
 * Put it beside sm5sim's d3d11.dll under such a Wine; Windows does not
 * need it. Build: x86_64-w64-mingw32-gcc -shared -O2 -o bcryptprimitives.dll
 *        bcryptprimitives.c bcryptprimitives.def -ladvapi32 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG chunk = length > 0x40000000 ? 0x40000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
