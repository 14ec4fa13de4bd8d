// §2.7.11: "if the reduction clause is used on a loop with the vector or worker clauses (and no
// gang clause), and the scalar variable also appears in a private clause on the parallel
// construct, the value of the private copy of the scalar will be updated at the exit of the loop."
#include <stdio.h>
int main(void) {
    int s;
    int seen[1];
#pragma acc parallel num_gangs(1) private(s) copyout(seen)
    {
        s = 0;
#pragma acc loop vector reduction(+:s)
        for (int i = 0; i < 100; i++) s += i;
        seen[0] = s;
    }
    printf("after the vector loop: %d\n", seen[0]);
    return 0;
}
