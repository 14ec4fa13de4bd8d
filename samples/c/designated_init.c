// Exercises: designated initializers for arrays ([5] = 1, ranges) and
// structs (.x = 2), nested designators, mixing positional and designated,
// overriding, and zero-filling of everything not mentioned.
#include <stdio.h>

struct point { int x, y, z; };
struct line { struct point a, b; const char *label; int tags[4]; };

int main(void) {
    int a[10] = {[5] = 1, [2] = 7, 3, [9] = 9};
    for (int i = 0; i < 10; i++) printf("%d ", a[i]);
    printf("\n");
    int b[] = {[3] = 4, [1] = 2};
    printf("sizeof b = %zu: %d %d %d %d\n", sizeof b / sizeof b[0], b[0], b[1], b[2], b[3]);
    int r[8] = {[1 ... 3] = 5, [6] = 1};  /* GNU range extension */
    for (int i = 0; i < 8; i++) printf("%d", r[i]);
    printf("\n");
    struct point p = {.z = 3, .x = 1};
    printf("p = %d %d %d\n", p.x, p.y, p.z);
    struct point q = {.y = 2, 5};  /* positional continues after .y */
    printf("q = %d %d %d\n", q.x, q.y, q.z);
    struct line l = {.b.y = 20, .a = {.x = 1, .z = 3}, .label = "L1", .tags[2] = 7, .b.x = 10};
    printf("l.a=%d,%d,%d l.b=%d,%d,%d label=%s tags=%d,%d,%d,%d\n", l.a.x, l.a.y, l.a.z, l.b.x, l.b.y,
           l.b.z, l.label, l.tags[0], l.tags[1], l.tags[2], l.tags[3]);
    struct point pts[4] = {[1].y = 5, [3] = {.x = 9}, [0] = {1, 1, 1}};
    for (int i = 0; i < 4; i++) printf("pts[%d] = %d %d %d\n", i, pts[i].x, pts[i].y, pts[i].z);
    int over[4] = {1, 2, 3, 4, [1] = 20};
    printf("override: %d %d %d %d\n", over[0], over[1], over[2], over[3]);
    char s[8] = {[0] = 'h', [1] = 'i'};
    printf("char array '%s' s[7]=%d\n", s, s[7]);
    int m[3][3] = {[0][0] = 1, [1][1] = 1, [2][2] = 1};
    for (int i = 0; i < 3; i++) printf("%d %d %d\n", m[i][0], m[i][1], m[i][2]);
    static const char *names[] = {[2] = "two", [0] = "zero"};
    for (int i = 0; i < 3; i++) printf("names[%d] = %s\n", i, names[i] ? names[i] : "(null)");
    union { int i; float f; } u = {.f = 1.0f};
    printf("union .f=1.0 -> i=0x%x\n", u.i);
    return 0;
}
