! `format` statements referenced by label from `print` and `write` (Fortran 2003 §10.1.1).
program format_labels
  implicit none
  integer :: i
  real(8) :: x
100 format('step', i3, ': x = ', f10.5)
  x = 1.0d0
  do i = 1, 4
    x = x - (x * x - 2.0d0) / (2.0d0 * x)
    print 100, i, x
  end do
  write(*, 200) 'done', x * x
200 format(A, 2X, ES12.4)
  write(6, fmt=300) (i * i, i = 1, 5)
300 FORMAT (5(I4, :, ','))
  call report(3)
contains
  subroutine report(n)
    integer, intent(in) :: n
    integer :: k
100 format('report ', i0, ' of ', i0)
    do k = 1, n
      write(*, 100) k, n
    end do
  end subroutine report
end program format_labels
