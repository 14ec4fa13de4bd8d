! `!$acc declare` in a procedure and in the main program: the data lives on the device for the
! implicit data region of the procedure (OpenACC 2.0 §2.13), here dummy arrays of explicit shape and a
! local work array.
module kernels
  implicit none
contains
  subroutine axpy_twice(n, alpha, x, y)
    integer, intent(in) :: n
    real(8), intent(in) :: alpha
    real(8), intent(in) :: x(n)
    real(8), intent(inout) :: y(n)
    real(8) :: work(n)
    integer :: i
    !$acc declare copyin(x) copy(y) create(work)
    !$acc parallel loop present(x, y, work)
    do i = 1, n
      work(i) = alpha * x(i)
    end do
    !$acc parallel loop present(y, work)
    do i = 1, n
      y(i) = y(i) + 2.0d0 * work(i)
    end do
  end subroutine axpy_twice

  real(8) function total(n, v)
    integer, intent(in) :: n
    real(8), intent(in) :: v(n)
    real(8) :: s
    integer :: i
    !$acc declare copyin(v)
    s = 0.0d0
    !$acc parallel loop reduction(+:s) present(v)
    do i = 1, n
      s = s + v(i)
    end do
    total = s
  end function total
end module kernels

program acc_declare_procedure
  use kernels
  implicit none
  integer, parameter :: n = 1000
  real(8) :: x(n), y(n), z(n)
  integer :: i
  !$acc declare create(z)
  do i = 1, n
    x(i) = i * 0.5d0
    y(i) = 1.0d0
  end do
  call axpy_twice(n, 3.0d0, x, y)
  print '(a, 3f12.2)', 'y:', y(1), y(500), y(n)
  print '(a, f16.2)', 'sum y:', total(n, y)
  !$acc parallel loop present(z)
  do i = 1, n
    z(i) = 2.0d0 * i
  end do
  !$acc update self(z(1:3))
  print '(a, 3f8.1)', 'z:', z(1:3)
end program acc_declare_procedure
