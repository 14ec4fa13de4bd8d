! Implicit typing (Fortran 2003 §5.3): i-n integer, everything else real.
program implicit_typing
  n = 7
  x = n / 2
  y = n / 2.0
  do i = 1, 3
    total = total + i * y
  end do
  print *, n, x, y, i
end program implicit_typing
