// §2.7.9 restriction: "It is a programming error to use the independent clause on a loop in a
// kernels construct if any iteration writes to a variable or array element that any other
// iteration also writes or reads". `accsim check` reports the race. (Only "done" is printed:
// the values are not determined.)
#include <stdio.h>
int main(void) {
    int a[64];
    for (int i = 0; i < 64; i++) a[i] = 1;
#pragma acc kernels copy(a)
    {
#pragma acc loop independent gang vector
        for (int i = 1; i < 64; i++) a[i] = a[i - 1] + 1; /* expect: data-race */
    }
    printf("done\n");
    return 0;
}
