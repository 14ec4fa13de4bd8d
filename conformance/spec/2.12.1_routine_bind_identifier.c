// §2.12.1.5: "The bind clause specifies the name to use when compiling or calling the procedure.
// If the name is specified as an identifier, it is compiled or called as if that name were
// specified". On the device the call goes to `where_dev`; on the host to `where`.
#include <stdio.h>
#pragma acc routine seq
static int where_dev(void) { return 2; }
#pragma acc routine seq bind(where_dev)
static int where(void) { return 1; }
int main(void) {
    int w[3];
#pragma acc parallel loop copyout(w)
    for (int i = 0; i < 3; i++) w[i] = where() * 10 + i;
    printf("device: %d %d %d  host: %d\n", w[0], w[1], w[2], where());
    return 0;
}
