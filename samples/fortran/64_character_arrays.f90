! Character arrays (Fortran 2003 §4.4.4, §6.2.2.2): fixed-size, allocatable and dummy arrays
! (explicit and assumed shape) of character(len=n) elements; assignment of a constructor (each
! value blank-padded or truncated to the element length), of one scalar to every element and of
! one array to another; elements compared, trimmed and taken apart by substrings; a sort
! swapping elements; sections in output, and list-directed output of whole arrays.
module words
  implicit none
contains
  subroutine sort_names(names, n)
    integer, intent(in) :: n
    character(len=8), intent(inout) :: names(n)
    character(len=8) :: t
    integer :: i, j
    do i = 1, n - 1
      do j = 1, n - i
        if (names(j) > names(j + 1)) then
          t = names(j)
          names(j) = names(j + 1)
          names(j + 1) = t
        end if
      end do
    end do
  end subroutine sort_names

  integer function count_a(names)
    character(len=8), intent(in) :: names(:)
    integer :: i
    count_a = 0
    do i = 1, size(names)
      if (names(i)(1:1) == 'a') count_a = count_a + 1
    end do
  end function count_a
end module words

program character_arrays
  use words
  implicit none
  character(len=8) :: fruit(5)
  character(len=3) :: short(5)
  character(len=4), allocatable :: tags(:)
  character(len=6) :: grid(2, 3)
  character(len=9), parameter :: digits = '123456789'
  integer :: i, j

  fruit = ['pear      ', 'apple     ', 'fig       ', 'banana    ', 'apricot   ']
  short = fruit
  call sort_names(fruit, 5)
  print *, 'sorted: ', (trim(fruit(i)), ' ', i = 1, 5)
  print *, 'short:  ', short
  print '(5(a, "|"))', fruit
  print *, 'starting with a:', count_a(fruit)

  allocate(tags(3))
  tags = 'none'
  tags(2) = 'mid-value'
  print *, 'tags: [', tags(1), '][', tags(2), '][', tags(3), ']', len(tags(1))

  do j = 1, 3
    do i = 1, 2
      grid(i, j) = 'r' // digits(i:i) // 'c' // digits(j:j)
    end do
  end do
  print *, grid(:, 2)
  print *, grid(2, :)
  print *, 'equal:', fruit(1) == 'apple', fruit(2) /= 'apricot'
  deallocate(tags)
end program character_arrays
