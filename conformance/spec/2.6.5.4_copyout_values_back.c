// §2.6.5.4: copyout: "the data is allocated upon entry to the region, and copied back to the
// local memory and deallocated upon exit from the region."
#include <stdio.h>
#include <openacc.h>
int main(void) {
    double r[12];
#pragma acc data copyout(r)
    {
#pragma acc parallel loop
        for (int i = 0; i < 12; i++) r[i] = i / 4.0;
    }
    printf("%.2f %.2f %.2f present: %d\n", r[1], r[6], r[11], acc_is_present(r, sizeof r) != 0);
    return 0;
}
