! Elemental intrinsics and conversions with gfortran's results.
program intrinsics
  implicit none
  real :: x
  double precision :: d
  integer :: k
  x = -2.75
  d = 0.5d0
  k = 17
  print *, abs(x), abs(-k), int(x), nint(x), floor(x), ceiling(x)
  print *, mod(k, 5), mod(-k, 5), modulo(-k, 5), mod(7.5, 2.0)
  print *, max(1, k, 9), min(2.5, x), sign(3, -1), sign(2.0, 1.0)
  print *, sqrt(2.0), sqrt(2.0d0), exp(d), log(10.0d0), log10(1000.0)
  print *, sin(d), cos(d), tan(d), atan2(1.0, 1.0)
  print *, real(k) / 3, dble(k) / 3, float(k), real(d)
  print *, huge(k), huge(x), tiny(d), epsilon(x), epsilon(d)
  print *, 2**10, 2.0**0.5, 1.5d0**3, k**2, (-2)**3
  print *, iand(12, 10), ior(12, 10), ieor(12, 10)
  print *, len_trim('abc   '), len('hello')
end program intrinsics
