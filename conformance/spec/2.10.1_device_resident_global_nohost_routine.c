// §2.10.1: "In C or C++ global scope, a variable or array in a device_resident clause will be
// available to subprograms compiled with the routine directive." §2.12.2: the routine must then
// have nohost. The array lives only on the device: one routine fills it, another reads it.
#include <stdio.h>
int counters[4];
#pragma acc declare device_resident(counters)
#pragma acc routine seq nohost
static void set_counter(int k, int v) { counters[k] = v; }
#pragma acc routine seq nohost
static int get_counter(int k) { return counters[k]; }
int main(void) {
    int out[4];
#pragma acc parallel num_gangs(1) copyout(out)
    {
        for (int k = 0; k < 4; k++) set_counter(k, 7 * k);
        for (int k = 0; k < 4; k++) out[k] = get_counter(k) + 1;
    }
    printf("%d %d %d %d\n", out[0], out[1], out[2], out[3]);
    return 0;
}
