// §2.12.1.1: "A call to this procedure must appear in code that is executed in gang-redundant
// mode, and all gangs must execute the call." The routine's gang loop divides the work among
// the gangs that call it.
#include <stdio.h>
#pragma acc routine gang
static void init_all(int *v, int n) {
#pragma acc loop gang
    for (int i = 0; i < n; i++) v[i] = 3 * i;
}
int main(void) {
    int v[90];
#pragma acc parallel num_gangs(4) copyout(v)
    {
        init_all(v, 90);
    }
    printf("%d %d %d\n", v[0], v[45], v[89]);
    return 0;
}
