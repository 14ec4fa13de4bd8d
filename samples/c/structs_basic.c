// Exercises: structs: nested structs, arrays of structs, struct assignment
// (copy, not aliasing), passing and returning structs by value, pointers to
// structs with ->, structs containing arrays (copied by value too).
#include <stdio.h>
#include <string.h>

struct vec2 { double x, y; };
struct rect { struct vec2 lo, hi; char name[16]; };
struct big { int data[8]; int n; };

static struct vec2 vadd(struct vec2 a, struct vec2 b) {
    struct vec2 r = {a.x + b.x, a.y + b.y};
    return r;
}

static double area(struct rect r) { return (r.hi.x - r.lo.x) * (r.hi.y - r.lo.y); }

static void grow(struct rect *r, double d) {
    r->lo.x -= d; r->lo.y -= d;
    r->hi.x += d; r->hi.y += d;
}

static struct big modify_copy(struct big b) {
    for (int i = 0; i < b.n; i++) b.data[i] *= 10;
    return b;
}

static struct rect make_rect(const char *name, double w, double h) {
    struct rect r;
    r.lo.x = 0; r.lo.y = 0;
    r.hi.x = w; r.hi.y = h;
    strncpy(r.name, name, sizeof r.name - 1);
    r.name[sizeof r.name - 1] = 0;
    return r;
}

int main(void) {
    struct vec2 a = {1.5, -2.0}, b = {0.25, 4.0};
    struct vec2 c = vadd(a, b);
    printf("c = (%g, %g)\n", c.x, c.y);
    struct rect r = make_rect("first", 3, 2);
    printf("%s area %g\n", r.name, area(r));
    struct rect r2 = r;  /* copy */
    grow(&r2, 0.5);
    strcpy(r2.name, "second");
    printf("r: %s lo=(%g,%g) hi=(%g,%g) area %g\n", r.name, r.lo.x, r.lo.y, r.hi.x, r.hi.y, area(r));
    printf("r2: %s lo=(%g,%g) hi=(%g,%g) area %g\n", r2.name, r2.lo.x, r2.lo.y, r2.hi.x, r2.hi.y, area(r2));
    struct big bg = {{1, 2, 3, 4, 5, 6, 7, 8}, 5};
    struct big bg2 = modify_copy(bg);
    for (int i = 0; i < 8; i++) printf("%d/%d ", bg.data[i], bg2.data[i]);
    printf("\n");
    struct rect arr[3];
    for (int i = 0; i < 3; i++) {
        arr[i] = make_rect(i == 0 ? "a" : i == 1 ? "bb" : "ccc", i + 1, 2 * i + 1);
    }
    double total = 0;
    for (int i = 0; i < 3; i++) total += area(arr[i]);
    printf("total area %g, last name %s len %zu\n", total, arr[2].name, strlen(arr[2].name));
    struct rect *pr = &arr[1];
    pr->hi = vadd(pr->hi, (struct vec2){1, 1});
    printf("arr[1].hi = (%g,%g)\n", arr[1].hi.x, arr[1].hi.y);
    struct { int k; const char *s; } anon[] = {{1, "one"}, {2, "two"}};
    printf("anon %d %s %d %s\n", anon[0].k, anon[0].s, anon[1].k, anon[1].s);
    struct vec2 z = {0};
    printf("zero init: %g %g\n", z.x, z.y);
    /* self-referential struct via pointer */
    struct node { int v; struct node *next; } n3 = {3, NULL}, n2 = {2, &n3}, n1 = {1, &n2};
    for (struct node *p = &n1; p; p = p->next) printf("node %d\n", p->v);
    /* struct equality must be done field by field */
    printf("a==a fieldwise: %d\n", a.x == a.x && a.y == a.y);
    /* chained assignment of structs */
    struct vec2 p1, p2;
    p1 = p2 = c;
    printf("p1=(%g,%g) p2=(%g,%g)\n", p1.x, p1.y, p2.x, p2.y);
    return 0;
}
