// §2.7.2 with §1.2 (execution model): gangs execute independently; nothing synchronises them
// between two gang loops of one parallel region. A second loop that reads elements another gang
// wrote in the first is a data race, which `accsim check` must report. (Only "done" is printed:
// the values read are not determined.) Each gang loop's access is an end of some racing pair:
// a gang's write in the first loop races with another gang's read in the second, whichever runs
// first.
#include <stdio.h>
int main(void) {
    int t[64], out[64];
    for (int i = 0; i < 64; i++) t[i] = -1;
#pragma acc parallel num_gangs(4) copyin(t) copyout(out)
    {
#pragma acc loop gang
        for (int i = 0; i < 64; i++) t[i] = i; /* expect: data-race */
#pragma acc loop gang
        for (int i = 0; i < 64; i++) out[i] = t[63 - i]; /* expect: data-race */
    }
    printf("done\n");
    return 0;
}
