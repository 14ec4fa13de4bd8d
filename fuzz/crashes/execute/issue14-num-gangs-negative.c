int printf(const char *, ...);
int main(void) {
  int a[64]; int n = -4;
  #pragma acc parallel loop num_gangs(n) num_workers(n) vector_length(-n) copyout(a)
  for (int i = 0; i < 64; i++) a[i] = i;
  printf("%d\n", a[63]);
  return 0;
}
