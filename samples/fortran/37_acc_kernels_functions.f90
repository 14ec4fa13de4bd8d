! A kernels construct calling an elemental-style module function marked `!$acc routine seq`,
! with intrinsics (sqrt, exp, mod) in device code.
module physics
  implicit none
contains
  real(8) function energy(x, v)
    !$acc routine seq
    real(8), intent(in) :: x, v
    energy = 0.5d0 * v * v + 9.81d0 * x
  end function energy
end module physics

program kernels_functions
  use physics
  implicit none
  integer, parameter :: n = 256
  real(8) :: x(n), v(n), e(n)
  integer :: i
  do i = 1, n
    x(i) = sqrt(dble(i))
    v(i) = exp(-dble(mod(i, 7)))
  end do
  !$acc kernels copyin(x, v) copyout(e)
  !$acc loop independent
  do i = 1, n
    e(i) = energy(x(i), v(i))
  end do
  !$acc end kernels
  write(*, '(3F12.6)') e(1), e(100), e(n)
end program kernels_functions
