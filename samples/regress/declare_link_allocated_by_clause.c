// Issue 12 item 12: `declare link(x)` allocates nothing at start-up (§2.10.2: "allocated in
// accelerator memory only when they appear in a data clause for a data construct, compute
// construct or enter data directive"); the data clause that names the variable allocates it,
// copies it in and out, and its lifetime is that clause's. Variants: a compute construct's own
// clause, a data construct, enter/exit data, a routine reaching the global while a clause maps it.
#include <stdio.h>
#include <openacc.h>

#define N 16

float table[N];
#pragma acc declare link(table)

#pragma acc routine seq
static float lookup(int i)
{
    return table[i];
}

int main(void)
{
    float out[N];
    int i;
    for (i = 0; i < N; i++)
        table[i] = (float)i;

    printf("present before any clause: %d\n", acc_is_present(table, sizeof table));

#pragma acc parallel loop copy(table)
    for (int k = 0; k < N; k++)
        table[k] += 1.0f;
    printf("after parallel copy(table): table[N-1] = %.0f, present: %d\n", table[N - 1], acc_is_present(table, sizeof table));

#pragma acc data copyin(table) copyout(out)
    {
#pragma acc parallel loop
        for (int k = 0; k < N; k++)
            out[k] = 2.0f * lookup(k);
    }
    printf("through a routine: out[3] = %.0f\n", out[3]);

#pragma acc enter data copyin(table)
#pragma acc parallel loop present(table)
    for (int k = 0; k < N; k++)
        table[k] = -table[k];
#pragma acc exit data copyout(table)
    printf("after enter/exit data: table[0] = %.0f, present: %d\n", table[0], acc_is_present(table, sizeof table));
    return 0;
}
