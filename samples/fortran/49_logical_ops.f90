! Logical expressions: short and full evaluation order does not change the result, logical
! arrays with any/all/count, and list-directed logical output.
program logical_ops
  implicit none
  logical :: p(6), q
  integer :: i
  p = [(mod(i, 2) == 0, i = 1, 6)]
  q = any(p) .and. .not. all(p)
  print *, p
  print *, q, count(p), p(2) .eqv. p(4), p(1) .neqv. p(2)
  if (q .and. count(p) == 3) print *, 'three even numbers'
end program logical_ops
