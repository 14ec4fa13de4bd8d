! A bubble sort with a logical flag, swapping through a contained subroutine, and an
! integer array printed with an implied-do list.
program bubble_sort
  implicit none
  integer :: v(10), i, n
  logical :: swapped
  v = [42, 7, 19, 3, 88, 56, 1, 23, 64, 11]
  n = size(v)
  do
    swapped = .false.
    do i = 1, n - 1
      if (v(i) > v(i + 1)) then
        call swap(v(i), v(i + 1))
        swapped = .true.
      end if
    end do
    n = n - 1
    if (.not. swapped) exit
  end do
  print *, (v(i), i = 1, 10)
  print '(10I4)', v
contains
  subroutine swap(a, b)
    integer, intent(inout) :: a, b
    integer :: t
    t = a
    a = b
    b = t
  end subroutine swap
end program bubble_sort
