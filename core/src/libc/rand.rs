//! glibc's pseudo-random generators, bit-exact: `rand`/`random` and `srand`/`srandom` share one
//! [`GlibcRandom`] state, and [`rand_r`] is glibc's own reentrant generator.
//!
//! `random` is glibc's default TYPE_3 additive feedback generator (`stdlib/random_r.c`): 31
//! words of state seeded by the Park–Miller "minimal standard" generator (16807 multiplier,
//! modulus 2^31 - 1, computed with Schrage's method), then `r[i] = r[i-31] + r[i-3]` modulo 2^32,
//! the first 310 outputs discarded, each output dropping the lowest bit. A program that never
//! calls `srand` behaves as if it called `srand(1)`, and seed 0 is replaced by 1.
//!
//! `initstate`/`setstate` (other state sizes) and `drand48` are not modelled.

/// `RAND_MAX` in glibc.
pub const RAND_MAX: i32 = 2_147_483_647;

const DEGREE: usize = 31;
const SEPARATION: usize = 3;
const DISCARDED: usize = 10 * DEGREE;

/// The state behind `rand`/`random`: glibc's TYPE_3 generator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GlibcRandom {
    state: [u32; DEGREE],
    /// Index of glibc's `fptr` (the front tap); it stays `SEPARATION` ahead of `rear`, cyclically.
    front: usize,
    /// Index of glibc's `rptr` (the rear tap).
    rear: usize,
}

impl Default for GlibcRandom {
    /// The state of a program that has not called `srand`.
    fn default() -> Self {
        GlibcRandom::new(1)
    }
}

impl GlibcRandom {
    /// The state after `srand(seed)` / `srandom(seed)`.
    pub fn new(seed: u32) -> Self {
        let mut rng = GlibcRandom {
            state: [0; DEGREE],
            front: SEPARATION,
            rear: 0,
        };
        rng.seed(seed);
        rng
    }

    /// `srand(seed)` / `srandom(seed)`.
    pub fn seed(&mut self, seed: u32) {
        let seed = if seed == 0 { 1 } else { seed };
        // glibc keeps the state in int32_t words; the seed is reinterpreted as signed.
        let mut word = i64::from(seed as i32);
        self.state[0] = word as u32;
        for slot in self.state.iter_mut().skip(1) {
            // 16807 * word % (2^31 - 1) without overflowing 31 bits (Schrage).
            let hi = word / 127_773;
            let lo = word % 127_773;
            word = 16_807 * lo - 2_836 * hi;
            if word < 0 {
                word += 2_147_483_647;
            }
            *slot = word as u32;
        }
        self.front = SEPARATION;
        self.rear = 0;
        for _ in 0..DISCARDED {
            self.next();
        }
    }

    /// `rand()` / `random()`: the next value in `0..=RAND_MAX`.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> i32 {
        let value = self.state[self.front].wrapping_add(self.state[self.rear]);
        self.state[self.front] = value;
        self.front = (self.front + 1) % DEGREE;
        self.rear = (self.rear + 1) % DEGREE;
        (value >> 1) as i32
    }
}

/// glibc's `rand_r`: three steps of a 32-bit LCG (1103515245, 12345) combined into 31 bits;
/// updates `*seed` like the C function.
pub fn rand_r(seed: &mut u32) -> i32 {
    let mut next = *seed;
    let mut step = || {
        next = next.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        next / 65_536
    };
    let mut result = step() % 2048;
    result = (result << 10) ^ (step() % 1024);
    result = (result << 10) ^ (step() % 1024);
    *seed = next;
    result as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::libc::gcc::run_c_program;

    const SEEDS: [u32; 5] = [0, 1, 42, 12345, 4_294_967_295];

    #[test]
    fn known_values() {
        // glibc: srand(1); rand() -> 1804289383, 846930886, 1681692777.
        let mut rng = GlibcRandom::default();
        assert_eq!(
            [rng.next(), rng.next(), rng.next()],
            [1_804_289_383, 846_930_886, 1_681_692_777]
        );
        assert_eq!(GlibcRandom::new(0), GlibcRandom::new(1));
        let mut seed = 1;
        let first = rand_r(&mut seed);
        assert!((0..=RAND_MAX).contains(&first));
        assert_ne!(seed, 1);
    }

    #[test]
    fn differential_against_glibc() {
        let mut program =
            String::from("#include <stdio.h>\n#include <stdlib.h>\nint main(void) {\n");
        program.push_str("  for (int i = 0; i < 1000; i++) printf(\"%d\\n\", rand());\n");
        for seed in SEEDS {
            program.push_str(&format!(
                "  srand({seed}u); for (int i = 0; i < 1000; i++) printf(\"%d\\n\", rand());\n\
                 \x20 srandom({seed}u); for (int i = 0; i < 1000; i++) printf(\"%ld\\n\", random());\n\
                 \x20 {{ unsigned s = {seed}u; for (int i = 0; i < 1000; i++) {{ int r = rand_r(&s); printf(\"%d %u\\n\", r, s); }} }}\n"
            ));
        }
        program.push_str("  return 0;\n}\n");
        let Some(expected) = run_c_program("rand", &program) else {
            return;
        };

        let mut ours = String::new();
        let mut unseeded = GlibcRandom::default();
        (0..1000).for_each(|_| ours.push_str(&format!("{}\n", unseeded.next())));
        for seed in SEEDS {
            for _ in 0..2 {
                let mut rng = GlibcRandom::new(seed);
                (0..1000).for_each(|_| ours.push_str(&format!("{}\n", rng.next())));
            }
            let mut s = seed;
            for _ in 0..1000 {
                let r = rand_r(&mut s);
                ours.push_str(&format!("{r} {s}\n"));
            }
        }
        let expected = String::from_utf8_lossy(&expected);
        for (i, (want, got)) in expected.lines().zip(ours.lines()).enumerate() {
            assert_eq!(
                want, got,
                "line {i} of the random sequences differs from glibc"
            );
        }
        assert_eq!(expected.lines().count(), ours.lines().count());
    }
}
