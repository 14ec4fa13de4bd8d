// §2.12.1.7: "The nohost tells the compiler not to compile a version of this procedure for the
// host. All calls to this procedure must appear within accelerator compute regions."
#include <stdio.h>
#pragma acc routine seq nohost
static int dev_only_square(int x) { return x * x; }
int main(void) {
    int v[5];
#pragma acc parallel loop copyout(v)
    for (int i = 0; i < 5; i++) v[i] = dev_only_square(i + 1);
    printf("%d %d %d\n", v[0], v[2], v[4]);
    return 0;
}
