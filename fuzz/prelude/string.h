#ifndef _FUZZ_STRING_H
#define _FUZZ_STRING_H
#include <stddef.h>
extern void *memset(void *, int, size_t);
extern void *memcpy(void *restrict, const void *restrict, size_t);
extern void *memmove(void *, const void *, size_t);
extern int memcmp(const void *, const void *, size_t);
extern void *memchr(const void *, int, size_t);
extern size_t strlen(const char *);
extern int strcmp(const char *, const char *);
extern int strncmp(const char *, const char *, size_t);
extern char *strcpy(char *restrict, const char *restrict);
extern char *strncpy(char *restrict, const char *restrict, size_t);
extern char *strcat(char *restrict, const char *restrict);
extern char *strchr(const char *, int);
extern char *strrchr(const char *, int);
extern char *strstr(const char *, const char *);
extern char *strtok(char *restrict, const char *restrict);
extern char *strdup(const char *);
#endif
