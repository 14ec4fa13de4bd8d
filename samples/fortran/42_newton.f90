! Newton's method in double precision with a function argument evaluated through module
! procedures, convergence test with abs and a do loop with exit.
module newton_mod
  implicit none
  integer, parameter :: dp = kind(1.0d0)
contains
  real(dp) function f(x)
    real(dp), intent(in) :: x
    f = x**3 - 2.0_dp * x - 5.0_dp
  end function f
  real(dp) function df(x)
    real(dp), intent(in) :: x
    df = 3.0_dp * x**2 - 2.0_dp
  end function df
end module newton_mod

program newton
  use newton_mod
  implicit none
  real(dp) :: x, dx
  integer :: it
  x = 2.0_dp
  do it = 1, 50
    dx = f(x) / df(x)
    x = x - dx
    if (abs(dx) < 1.0e-14_dp) exit
  end do
  print *, 'root', x, 'after', it, 'iterations'
  write(*, '(F20.15)') x
end program newton
