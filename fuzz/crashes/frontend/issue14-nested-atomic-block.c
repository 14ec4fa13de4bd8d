int main(void) {
  int x = 0, y = 0;
  #pragma acc parallel num_gangs(2) copy(x, y)
  {
    #pragma acc atomic
    {
      #pragma acc atomic
      x++;
      y++;
    }
  }
  return x + y;
}
