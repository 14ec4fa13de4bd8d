// Issue 14, untrusted programs: each gang of a reduction has its private partial (§2.5.11); with
// 2^20 gangs they were all made up front and their allocation records never recycled (4.9 GB
// for 2^24 gangs whatever --max-memory said). Gangs now run in batches whose copies are freed
// and recycled: the result is the same and the memory stays small.
#include <stdio.h>

int main(void) {
    long sum = 0;
    int n = 1 << 12;
#pragma acc parallel loop num_gangs(1 << 20) reduction(+:sum)
    for (int i = 0; i < n; i++)
        sum += i;
    printf("%ld\n", sum);
    return 0;
}
