// Exercises: sizeof of every basic type and of derived types, plus the
// limits in limits.h (LP64 data model on x86-64 Linux).
#include <stdio.h>
#include <limits.h>
#include <stddef.h>
#include <stdbool.h>

struct S { char c; int i; };
union U { char c[5]; int i; };
enum E { E_A, E_B };
typedef int arr10[10];

int main(void) {
    printf("char %zu\n", sizeof(char));
    printf("signed char %zu\n", sizeof(signed char));
    printf("unsigned char %zu\n", sizeof(unsigned char));
    printf("short %zu\n", sizeof(short));
    printf("unsigned short %zu\n", sizeof(unsigned short));
    printf("int %zu\n", sizeof(int));
    printf("unsigned %zu\n", sizeof(unsigned));
    printf("long %zu\n", sizeof(long));
    printf("unsigned long %zu\n", sizeof(unsigned long));
    printf("long long %zu\n", sizeof(long long));
    printf("unsigned long long %zu\n", sizeof(unsigned long long));
    printf("float %zu\n", sizeof(float));
    printf("double %zu\n", sizeof(double));
    printf("_Bool %zu bool %zu\n", sizeof(_Bool), sizeof(bool));
    printf("void* %zu int* %zu char** %zu\n", sizeof(void *), sizeof(int *), sizeof(char **));
    printf("fnptr %zu\n", sizeof(int (*)(int)));
    printf("size_t %zu ptrdiff_t %zu\n", sizeof(size_t), sizeof(ptrdiff_t));
    printf("struct S %zu union U %zu enum E %zu\n", sizeof(struct S), sizeof(union U), sizeof(enum E));
    printf("arr10 %zu int[3][4] %zu\n", sizeof(arr10), sizeof(int[3][4]));
    printf("\"hello\" %zu\n", sizeof("hello"));
    int a[7];
    int *p = a;
    printf("a %zu p %zu *a %zu a[0] %zu &a %zu\n", sizeof a, sizeof p, sizeof *a, sizeof a[0], sizeof &a);
    printf("count %zu\n", sizeof a / sizeof a[0]);
    printf("sizeof expression not evaluated: ");
    int k = 1;
    size_t z = sizeof(k++);
    printf("%zu k=%d\n", z, k);

    printf("CHAR_BIT %d\n", CHAR_BIT);
    printf("SCHAR %d..%d UCHAR_MAX %d CHAR %d..%d\n", SCHAR_MIN, SCHAR_MAX, UCHAR_MAX, CHAR_MIN, CHAR_MAX);
    printf("SHRT %d..%d USHRT_MAX %d\n", SHRT_MIN, SHRT_MAX, USHRT_MAX);
    printf("INT %d..%d UINT_MAX %u\n", INT_MIN, INT_MAX, UINT_MAX);
    printf("LONG %ld..%ld ULONG_MAX %lu\n", LONG_MIN, LONG_MAX, ULONG_MAX);
    printf("LLONG %lld..%lld ULLONG_MAX %llu\n", LLONG_MIN, LLONG_MAX, ULLONG_MAX);
    return 0;
}
