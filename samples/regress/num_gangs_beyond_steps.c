// Issue 14, untrusted programs: `num_gangs(1<<30)` allocated every gang's arguments up front
// (24-48 GiB) and aborted. The gangs are now made batch by batch as they run; a launch of more
// gangs than `--max-steps` leaves (each gang costs at least one step) stops before it starts,
// exit 4 naming the flag.
// accsim-flags: --max-steps 100000000
// expect-exit: 4
// expect-stderr: error[max-steps]
// expect-stderr: a launch of 1073741824 gangs
// expect-stderr: --max-steps N
#include <stdio.h>

int main(void) {
    int hist[64] = {0};
#pragma acc parallel loop num_gangs(1 << 30) copy(hist) /* expect: max-steps */
    for (int i = 0; i < 64; i++)
        hist[i] += i;
    printf("%d\n", hist[63]);
    return 0;
}
