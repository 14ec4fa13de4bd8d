// Issue 12 item 8: GNU `mode(M)` gives an integer declarator the integer type of a machine mode
// (gcc manual, "Common Variable Attributes"). glibc's <sys/types.h> (included by <stdlib.h>)
// declares `register_t` with `mode(__word__)`: a `long`, which accsim made an `int`.
#include <stdio.h>
#include <stdlib.h>

typedef unsigned int byte_t __attribute__((mode(QI)));
typedef int half_t __attribute__((__mode__(__HI__)));

int main(void)
{
    byte_t counter = 250;
    half_t acc = 32000;
    register_t wide = 1;
    for (int i = 0; i < 10; i++) {
        counter++;
        acc += 100;
        wide <<= 4;
    }
    printf("sizes %zu %zu %zu\n", sizeof(byte_t), sizeof(half_t), sizeof(register_t));
    printf("%u %d %ld\n", (unsigned)counter, (int)acc, (long)wide);
    return 0;
}
