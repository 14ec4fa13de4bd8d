! The sieve of Eratosthenes on a logical array with strided section assignment.
program primes
  implicit none
  integer, parameter :: n = 100
  logical :: is_prime(n)
  integer :: i, count
  is_prime = .true.
  is_prime(1) = .false.
  do i = 2, int(sqrt(real(n)))
    if (is_prime(i)) is_prime(i*i:n:i) = .false.
  end do
  count = 0
  do i = 1, n
    if (is_prime(i)) then
      count = count + 1
      write(*, '(I4)', advance='no') i
    end if
  end do
  print *
  print *, 'primes up to', n, ':', count
end program primes
