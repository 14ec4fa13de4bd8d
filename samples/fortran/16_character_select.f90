! select case on character values and logical .eqv./.neqv.
program character_select
  implicit none
  character(len=8) :: w
  integer :: i
  logical :: a, b
  do i = 1, 3
    select case (i)
    case (1)
      w = 'red'
    case (2)
      w = 'green'
    case default
      w = 'blue'
    end select
    select case (w)
    case ('red', 'blue')
      print *, trim(w), ' is primary-ish'
    case default
      print *, trim(w), ' is something else'
    end select
  end do
  a = .true.
  b = .false.
  print *, a .eqv. b, a .neqv. b, .not. (a .and. b)
end program character_select
