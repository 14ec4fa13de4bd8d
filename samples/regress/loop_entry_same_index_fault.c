// Issue 15 (native engine, compile share): an index with a division written at two places in a
// counted loop (`a[i / d] = a[i / d] + 1` with `d` zero) faults at the first division the
// interpreter runs, in both engines: the loop entry's memo shares no division between places
// (jit/src/loops.rs, `Translator::located`).
// expect-exit: 3
// expect-stderr: division-by-zero
// expect-stderr: 18:31
// check: skip
#include <stdio.h>

int main(void)
{
    int a[64];
    for (int i = 0; i < 64; i++)
        a[i] = i;
    for (int d = 2; d >= 0; d--)
        for (int i = 0; i < 32; i++)
            a[i / d + 16] = a[i / d + 16] + a[i * 2 / (d + 1)];
    printf("%d\n", a[20]);
    return 0;
}
