// §2.6.4: enter data takes scalars: a scalar copied in once and named in a present clause (so not
// firstprivate) is read by later regions and changed there; exit data copyout brings it back.
#include <stdio.h>
int main(void) {
    int counter = 10;
    int first[1], second[1];
#pragma acc enter data copyin(counter)
#pragma acc parallel num_gangs(1) present(counter) copyout(first)
    {
        first[0] = counter;
        counter = counter + 5;
    }
#pragma acc parallel num_gangs(1) present(counter) copyout(second)
    {
        second[0] = counter;
    }
#pragma acc exit data copyout(counter)
    printf("seen %d %d, counter = %d\n", first[0], second[0], counter);
    return 0;
}
