! Subroutines and functions: arguments by reference, intent, result variables, recursion,
! contained procedures seeing the host's variables (host association).
program procedures
  implicit none
  integer :: a, b, calls
  real :: r
  calls = 0
  a = 3
  b = 4
  call swap(a, b)
  print *, 'swapped:', a, b
  print *, 'hypot:', hypot3(3.0, 4.0, 12.0)
  print *, 'fact(10) =', fact(10)
  call bump(a)
  call bump(a)
  print *, 'bumped:', a, 'calls:', calls
  r = average(2, 7)
  print *, 'average:', r
contains
  subroutine swap(x, y)
    integer, intent(inout) :: x, y
    integer :: t
    t = x
    x = y
    y = t
  end subroutine swap
  real function hypot3(x, y, z)
    real, intent(in) :: x, y, z
    hypot3 = sqrt(x**2 + y**2 + z**2)
  end function hypot3
  recursive function fact(n) result(f)
    integer, intent(in) :: n
    integer :: f
    if (n <= 1) then
      f = 1
    else
      f = n * fact(n - 1)
    end if
  end function fact
  subroutine bump(x)
    integer, intent(inout) :: x
    x = x + 10
    calls = calls + 1
  end subroutine bump
  function average(p, q) result(m)
    integer, intent(in) :: p, q
    real :: m
    m = real(p + q) / 2
  end function average
end program procedures
