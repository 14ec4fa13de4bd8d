int printf(const char *, ...);
#pragma acc routine seq
int bump(int *y) {
  #pragma acc atomic update
  *y += 1;
  return 1;
}
int main(void) {
  int x = 0, y = 0;
  #pragma acc parallel num_gangs(2) copy(x, y)
  {
    #pragma acc atomic update
    x += bump(&y);
  }
  printf("%d %d\n", x, y);
  return 0;
}
