! `data` statements (Fortran 2003 §5.2.5: initial values, repeat counts, saved variables) and
! an interface block for an external procedure (§12.3.2.1).
program data_interface
  implicit none
  interface
    subroutine tally(x, total)
      real, intent(in) :: x
      real, intent(inout) :: total
    end subroutine tally
    integer function next_id()
    end function next_id
  end interface
  real :: coeffs(5), total
  integer :: grid(2, 3), i
  logical :: verbose
  character(len=8) :: label
  data coeffs /1.0, 2*0.5, 2*-0.25/
  data grid /1, 2, 3, 4, 5, 6/, verbose /.true./
  data total /0.0/
  label = 'sums'
  do i = 1, 5
    call tally(coeffs(i), total)
  end do
  if (verbose) print '(a, 1x, f8.3)', trim(label), total
  print '(3i3)', grid
  print '(3i4)', next_id(), next_id(), next_id()
end program data_interface

subroutine tally(x, total)
  implicit none
  real, intent(in) :: x
  real, intent(inout) :: total
  integer :: calls
  data calls /0/
  calls = calls + 1
  total = total + x * calls
end subroutine tally

integer function next_id()
  implicit none
  integer :: counter
  data counter /100/
  counter = counter + 7
  next_id = counter
end function next_id
