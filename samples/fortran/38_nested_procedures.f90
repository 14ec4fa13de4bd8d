! Procedures calling each other across modules, integer division and modulo edge cases, and a
! function with side effects through an intent(inout) argument.
module counters
  implicit none
  integer :: ticks = 0
contains
  subroutine tick(n)
    integer, intent(in) :: n
    ticks = ticks + n
  end subroutine tick
end module counters

module maths
  use counters
  implicit none
contains
  integer function gcd(a, b)
    integer, intent(in) :: a, b
    integer :: x, y, t
    x = a
    y = b
    do while (y /= 0)
      call tick(1)
      t = mod(x, y)
      x = y
      y = t
    end do
    gcd = x
  end function gcd
  integer function next_value(k)
    integer, intent(inout) :: k
    k = k + 1
    next_value = k * k
  end function next_value
end module maths

program nested_procedures
  use maths
  use counters, only: ticks
  implicit none
  integer :: k, s
  print *, gcd(1071, 462), gcd(17, 5), ticks
  print *, 7 / 2, -7 / 2, mod(-7, 2), modulo(-7, 2), 7 / (-2)
  k = 3
  s = next_value(k)
  print *, s, k
end program nested_procedures
