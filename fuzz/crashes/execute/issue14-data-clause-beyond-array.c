int main(void) {
  char a[16];
  #pragma acc data create(a[0:1<<20])
  {
  #pragma acc parallel loop
  for (int i = 0; i < 16; i++) a[i] = i;
  }
  return 0;
}
