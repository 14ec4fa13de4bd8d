// §2.5.1 applies to data clauses of enclosing data constructs; a scalar mapped by enter data is
// in no such clause, so in a parallel region it is firstprivate: the region's write goes to a
// private copy and the device copy keeps its value (read back with update host).
#include <stdio.h>
int main(void) {
    int count = 3;
#pragma acc enter data copyin(count)
#pragma acc parallel num_gangs(1)
    {
        count = 99; /* expect: lost-write */
    }
#pragma acc update host(count)
    printf("count = %d\n", count);
#pragma acc exit data delete(count)
    return 0;
}
