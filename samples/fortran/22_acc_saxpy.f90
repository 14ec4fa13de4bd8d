! saxpy on allocatable arrays inside a subroutine with assumed-shape dummies (§2.5.1: arrays
! with no data clause are present_or_copy).
module blas
  implicit none
contains
  subroutine saxpy(n, alpha, x, y)
    integer, intent(in) :: n
    real, intent(in) :: alpha
    real, intent(in) :: x(:)
    real, intent(inout) :: y(:)
    integer :: i
    !$acc kernels
    do i = 1, n
      y(i) = alpha * x(i) + y(i)
    end do
    !$acc end kernels
  end subroutine saxpy
end module blas

program saxpy_main
  use blas
  implicit none
  real, allocatable :: x(:), y(:)
  integer :: n, i
  n = 4096
  allocate(x(n), y(n))
  do i = 1, n
    x(i) = real(i) / n
    y(i) = 1.0
  end do
  call saxpy(n, 2.0, x, y)
  print *, y(1), y(n / 2), y(n)
  deallocate(x, y)
end program saxpy_main
