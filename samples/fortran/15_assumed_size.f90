! Explicit-shape and assumed-size dummies receive the address of the first element (sequence
! association, Fortran 2003 §12.4.1.5): a column of a matrix can be passed as a vector.
program assumed_size
  implicit none
  integer, parameter :: n = 4
  real :: m(n, n)
  integer :: i, j
  do j = 1, n
    do i = 1, n
      m(i, j) = i + 10 * j
    end do
  end do
  call scale(m(1, 3), n, 2.0)
  call show(m, n * n)
  print *, colsum(m(:, 2), n)
contains
  subroutine scale(v, k, f)
    integer, intent(in) :: k
    real, intent(inout) :: v(*)
    real, intent(in) :: f
    integer :: t
    do t = 1, k
      v(t) = v(t) * f
    end do
  end subroutine scale
  subroutine show(v, k)
    integer, intent(in) :: k
    real, intent(in) :: v(k)
    print *, v
  end subroutine show
  real function colsum(c, k)
    integer, intent(in) :: k
    real, intent(in) :: c(k)
    colsum = sum(c)
  end function colsum
end program assumed_size
