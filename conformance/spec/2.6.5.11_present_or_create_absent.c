// §2.6.5.11: "If the data is not present, the program behaves as with the create clause": a
// device scratch array, never copied either way (one gang: its loops run one after the other).
#include <stdio.h>
#include <openacc.h>
int main(void) {
    int scratch[8] = {7, 7, 7, 7, 7, 7, 7, 7};
    int out[8];
#pragma acc parallel num_gangs(1) present_or_create(scratch) copyout(out)
    {
#pragma acc loop
        for (int i = 0; i < 8; i++) scratch[i] = i;
#pragma acc loop
        for (int i = 0; i < 8; i++) out[i] = scratch[7 - i];
    }
    printf("out: %d %d  scratch: %d %d  present: %d\n", out[0], out[7], scratch[0], scratch[7], /* expect: stale-host-read */
           acc_is_present(scratch, sizeof scratch) != 0);
    return 0;
}
