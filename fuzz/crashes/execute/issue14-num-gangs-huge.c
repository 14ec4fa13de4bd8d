int printf(const char *, ...);
int main(void) {
  int a[64];
  #pragma acc parallel loop num_gangs(1<<30) copyout(a)
  for (int i = 0; i < 64; i++) a[i] = i;
  printf("%d\n", a[63]);
  return 0;
}
