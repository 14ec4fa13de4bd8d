// Exercises: a tiny tokenizer and recursive-descent evaluator for integer
// arithmetic expressions (+ - * / % parentheses, unary minus), using
// ctype.h classification, enums for token kinds, and strtol.
#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>

enum tok { T_NUM, T_IDENT, T_OP, T_LPAREN, T_RPAREN, T_END, T_BAD };
static const char *tok_names[] = {"NUM", "IDENT", "OP", "LPAREN", "RPAREN", "END", "BAD"};

struct lexer { const char *p; enum tok kind; long num; char text[16]; };

static void next(struct lexer *lx) {
    while (isspace((unsigned char)*lx->p)) lx->p++;
    const char *s = lx->p;
    if (*s == '\0') { lx->kind = T_END; strcpy(lx->text, "<end>"); return; }
    if (isdigit((unsigned char)*s)) {
        char *end;
        lx->num = strtol(s, &end, 10);
        lx->kind = T_NUM;
        lx->p = end;
    } else if (isalpha((unsigned char)*s) || *s == '_') {
        while (isalnum((unsigned char)*lx->p) || *lx->p == '_') lx->p++;
        lx->kind = T_IDENT;
    } else if (strchr("+-*/%", *s)) {
        lx->kind = T_OP;
        lx->p++;
    } else if (*s == '(') { lx->kind = T_LPAREN; lx->p++; }
    else if (*s == ')') { lx->kind = T_RPAREN; lx->p++; }
    else { lx->kind = T_BAD; lx->p++; }
    size_t n = (size_t)(lx->p - s);
    if (n > sizeof lx->text - 1) n = sizeof lx->text - 1;
    memcpy(lx->text, s, n);
    lx->text[n] = 0;
}

static long expr(struct lexer *lx, int *err);
static long primary(struct lexer *lx, int *err) {
    if (lx->kind == T_NUM) { long v = lx->num; next(lx); return v; }
    if (lx->kind == T_IDENT) {
        long v = strcmp(lx->text, "x") == 0 ? 10 : strcmp(lx->text, "y") == 0 ? -3 : 0;
        next(lx);
        return v;
    }
    if (lx->kind == T_OP && lx->text[0] == '-') { next(lx); return -primary(lx, err); }
    if (lx->kind == T_LPAREN) {
        next(lx);
        long v = expr(lx, err);
        if (lx->kind != T_RPAREN) *err = 1; else next(lx);
        return v;
    }
    *err = 1;
    return 0;
}
static long term(struct lexer *lx, int *err) {
    long v = primary(lx, err);
    while (lx->kind == T_OP && strchr("*/%", lx->text[0])) {
        char op = lx->text[0];
        next(lx);
        long r = primary(lx, err);
        if ((op == '/' || op == '%') && r == 0) { *err = 2; return 0; }
        v = op == '*' ? v * r : op == '/' ? v / r : v % r;
    }
    return v;
}
static long expr(struct lexer *lx, int *err) {
    long v = term(lx, err);
    while (lx->kind == T_OP && strchr("+-", lx->text[0])) {
        char op = lx->text[0];
        next(lx);
        long r = term(lx, err);
        v = op == '+' ? v + r : v - r;
    }
    return v;
}

int main(void) {
    const char *src = "foo_1 + (23*x) - 7 % 3 @";
    struct lexer lx = {src, T_END, 0, ""};
    printf("tokens of \"%s\":\n", src);
    do {
        next(&lx);
        printf("  %-6s '%s'", tok_names[lx.kind], lx.text);
        if (lx.kind == T_NUM) printf(" value=%ld", lx.num);
        printf("\n");
    } while (lx.kind != T_END);
    const char *exprs[] = {"1 + 2 * 3", "(1 + 2) * 3", "-7 / 2", "-7 % 3", "x * x - y", "((4))", "2 * (3 + ",
                           "10 / (5 - 5)", "100 - 99 - 1", "-(-(-5))", "  42  "};
    for (size_t i = 0; i < sizeof exprs / sizeof exprs[0]; i++) {
        struct lexer l = {exprs[i], T_END, 0, ""};
        next(&l);
        int err = 0;
        long v = expr(&l, &err);
        if (!err && l.kind != T_END) err = 1;
        if (err == 1) printf("%-14s => syntax error\n", exprs[i]);
        else if (err == 2) printf("%-14s => division by zero\n", exprs[i]);
        else printf("%-14s => %ld\n", exprs[i], v);
    }
    char csv[] = "alpha,beta,,gamma;delta";
    printf("strtok:");
    for (char *t = strtok(csv, ",;"); t; t = strtok(NULL, ",;")) printf(" [%s]", t);
    printf("\n");
    return 0;
}
