// expect-exit: 3
// expect-stderr: out-of-bounds
// expect-line: 13
// Writing one element past the end of a stack array (classic off-by-one
// `<=` loop bound). The fault is the write when i == 8.
#include <stdio.h>

int main(void) {
    int a[8];
    int sum = 0;
    printf("filling\n");
    for (int i = 0; i <= 8; i++)
        a[i] = i * i;
    for (int i = 0; i < 8; i++) sum += a[i];
    printf("%d\n", sum);
    return 0;
}
