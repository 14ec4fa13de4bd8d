! Modules: variables, parameters with kinds, use with only, module procedures.
module constants
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  integer, parameter :: n = 5
  real(dp), parameter :: pi = 3.141592653589793_dp
end module constants

module stats
  use constants, only: dp, n
  implicit none
  real(dp) :: last_mean = 0.0_dp
contains
  function mean(x) result(m)
    real(dp), intent(in) :: x(n)
    real(dp) :: m
    integer :: i
    m = 0.0_dp
    do i = 1, n
      m = m + x(i)
    end do
    m = m / n
    last_mean = m
  end function mean
end module stats

program use_modules
  use constants
  use stats
  implicit none
  real(dp) :: v(n)
  integer :: i
  do i = 1, n
    v(i) = pi * i
  end do
  print *, 'mean =', mean(v)
  print *, 'saved =', last_mean
  print *, 'kind =', dp, 'pi =', pi
end program use_modules
