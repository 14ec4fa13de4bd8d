#ifndef _FUZZ_STDIO_H
#define _FUZZ_STDIO_H
#include <stddef.h>
typedef struct _IO_FILE FILE;
typedef long fpos_t;
extern FILE *stdin;
extern FILE *stdout;
extern FILE *stderr;
#define stdin stdin
#define stdout stdout
#define stderr stderr
#define EOF (-1)
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#define BUFSIZ 8192
extern int printf(const char *restrict, ...);
extern int fprintf(FILE *restrict, const char *restrict, ...);
extern int sprintf(char *restrict, const char *restrict, ...);
extern int snprintf(char *restrict, size_t, const char *restrict, ...);
extern int puts(const char *);
extern int putchar(int);
extern int fputs(const char *restrict, FILE *restrict);
extern int fputc(int, FILE *);
extern int putc(int, FILE *);
extern int fflush(FILE *);
extern FILE *fopen(const char *restrict, const char *restrict);
extern int fclose(FILE *);
extern size_t fread(void *restrict, size_t, size_t, FILE *restrict);
extern size_t fwrite(const void *restrict, size_t, size_t, FILE *restrict);
extern char *fgets(char *restrict, int, FILE *restrict);
extern int fgetc(FILE *);
extern int getc(FILE *);
extern int getchar(void);
extern int fscanf(FILE *restrict, const char *restrict, ...);
extern int scanf(const char *restrict, ...);
extern int sscanf(const char *restrict, const char *restrict, ...);
extern int feof(FILE *);
extern int ferror(FILE *);
extern int fseek(FILE *, long, int);
extern long ftell(FILE *);
extern void rewind(FILE *);
extern void perror(const char *);
#endif
