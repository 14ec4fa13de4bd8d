// §2.6.5.10: "If the data is not present, the program behaves as with the copyout clause."
#include <stdio.h>
int main(void) {
    float b[5];
#pragma acc parallel loop present_or_copyout(b)
    for (int i = 0; i < 5; i++) b[i] = i * 1.25f;
    printf("%.2f %.2f\n", b[1], b[4]);
    return 0;
}
