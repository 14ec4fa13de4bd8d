// Exercises: pointers and pointer arithmetic: address-of and dereference,
// increment, difference (ptrdiff_t), comparison, pointer to pointer,
// void* round trips, const pointers, pointers into arrays of structs.
#include <stdio.h>
#include <stddef.h>

static void swap(int *a, int *b) { int t = *a; *a = *b; *b = t; }
static void set_ptr(int **pp, int *target) { *pp = target; }

struct pt { int x, y; };

int main(void) {
    int a[10];
    for (int i = 0; i < 10; i++) a[i] = i * i;
    int *p = a;
    int *e = a + 10;
    printf("*p=%d p[3]=%d *(p+4)=%d 5[a]=%d\n", *p, p[3], *(p + 4), 5[a]);
    ptrdiff_t diff = e - p;
    printf("e-p=%td\n", diff);
    int *mid = &a[5];
    printf("mid-p=%td p<mid=%d mid>e=%d mid==&a[5]=%d\n", mid - p, p < mid, mid > e, mid == &a[5]);
    int sum = 0;
    for (int *q = a; q != e; q++) sum += *q;
    printf("sum=%d\n", sum);
    int *q = e;
    while (q > a) { --q; if (*q % 2) *q = -*q; }
    for (int i = 0; i < 10; i++) printf("%d ", a[i]);
    printf("\n");
    int x = 1, y = 2;
    swap(&x, &y);
    printf("swapped x=%d y=%d\n", x, y);
    int *ptr = NULL;
    set_ptr(&ptr, &x);
    printf("via pp: %d\n", *ptr);
    int **pp = &ptr;
    **pp = 99;
    printf("x=%d\n", x);
    int ***ppp = &pp;
    ***ppp += 1;
    printf("x=%d\n", x);
    void *vp = a;
    int *back = vp;
    printf("void* roundtrip: %d\n", back[2]);
    char *bytes = (char *)vp;
    printf("byte distance of a[3]: %td\n", (char *)&a[3] - bytes);
    unsigned char *ub = (unsigned char *)&a[3];
    printf("little-endian bytes of a[3]=%d: %02x %02x %02x %02x\n", a[3], ub[0], ub[1], ub[2], ub[3]);
    const int ci = 5;
    const int *pc = &ci;
    printf("const via ptr %d\n", *pc);
    int arr2[3] = {7, 8, 9};
    int *const cp = arr2;
    cp[1] = 80;
    printf("arr2 = %d %d %d\n", arr2[0], arr2[1], arr2[2]);
    struct pt pts[4] = {{1, 2}, {3, 4}, {5, 6}, {7, 8}};
    struct pt *sp = pts;
    sp++;
    printf("sp->x=%d (sp+1)->y=%d (*sp).y=%d\n", sp->x, (sp + 1)->y, (*sp).y);
    printf("&pts[3]-sp = %td\n", &pts[3] - sp);
    int *ip = &sp->y;
    printf("*ip=%d", *ip);
    printf(" ++ -> %d\n", ++*ip);
    int v = *ip++;  /* post-increment pointer, read old */
    printf("v=%d now *ip=%d\n", v, *ip);
    printf("null pointer compares: %d %d\n", ptr == NULL, (void *)0 == NULL);
    int (*pa)[10] = &a;
    printf("(*pa)[9]=%d sizeof *pa=%zu\n", (*pa)[9], sizeof *pa);
    return 0;
}
