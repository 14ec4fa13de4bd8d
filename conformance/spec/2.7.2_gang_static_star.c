// §2.7.2: "If the static argument appears with an asterisk, the implementation will select a
// chunk size."
#include <stdio.h>
int main(void) {
    double s = 0;
#pragma acc parallel num_gangs(3) reduction(+:s)
    {
#pragma acc loop gang(static:*) reduction(+:s)
        for (int i = 1; i <= 64; i++) s += 1.0 / 64;
    }
    printf("s = %.3f\n", s);
    return 0;
}
