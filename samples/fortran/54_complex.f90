! Complex variables, constants, arithmetic and intrinsics (Fortran 2003 §4.4.3, §13.7):
! roots of a quadratic and a small Mandelbrot picture.
program complex_numbers
  implicit none
  complex :: z, w, roots(2)
  complex(8) :: zd, c
  real :: a, b, cc
  integer :: i, j, k
  character(len=32) :: row
  z = (1.0, 2.0)
  w = cmplx(3.0, -1.5)
  print *, z, w
  print *, z + w, z * w, z / w
  print *, abs(z), real(z), aimag(z), conjg(z)
  print *, z**2, 2.0 * z - 1
  print '(2f8.4)', sqrt(z)
  print '(a, 2(f9.5, 1x))', 'exp: ', exp(w)
  zd = (0.5d0, -0.25d0)
  print *, zd * zd, abs(zd)
  print *, z == w, z /= w
  ! x**2 + 2x + 5 = 0
  a = 1.0
  b = 2.0
  cc = 5.0
  roots(1) = (-b + sqrt(cmplx(b * b - 4.0 * a * cc, 0.0))) / (2.0 * a)
  roots(2) = (-b - sqrt(cmplx(b * b - 4.0 * a * cc, 0.0))) / (2.0 * a)
  print '(a, 2("(", f6.2, ",", f6.2, ") "))', 'roots: ', roots
  print *, sum(roots), product(roots)
  do j = 1, 11
    row = ' '
    do i = 1, 32
      c = cmplx(-2.0d0 + (i - 1) * 2.5d0 / 31, -1.1d0 + (j - 1) * 2.2d0 / 10, kind=8)
      zd = (0.0d0, 0.0d0)
      do k = 1, 50
        zd = zd * zd + c
        if (abs(zd) > 2.0d0) exit
      end do
      if (k > 50) row(i:i) = '#'
    end do
    print '(a)', row
  end do
end program complex_numbers
