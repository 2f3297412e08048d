// examples/vector.cpp — relo::vector: a std::vector whose growth relocates elements as bytes.
//
// A particle system keeps its particles in one vector that grows while the simulation runs. Particle owns a
// heap buffer and has its own move constructor, so std::vector moves each one when it grows; declaring it
// trivially relocatable lets relo::vector grow with realloc (mremap for large blocks): nothing is moved.
#include <relo/vector.hpp>

#include <cstdio>
#include <memory>

struct particle {
    float x = 0, y = 0, vx = 1, vy = 1;
    std::unique_ptr<float[]> trail = std::make_unique<float[]>(8);  // owns memory: not trivially copyable
    particle() = default;
    particle(particle&&) noexcept = default;
    particle& operator=(particle&&) noexcept = default;
};
// Moving the bytes of a particle and forgetting the source is exactly what its move and destructor do.
RELO_TRIVIALLY_RELOCATABLE(particle);

int main() {
    relo::vector<particle> particles;
    std::size_t expected = 0;  // what the loop below leaves, counted
    for (int frame = 0; frame < 100; ++frame) {
        expected += 1000;
        expected -= (expected + 9) / 10;
        for (int spawn = 0; spawn < 1000; ++spawn) particles.emplace_back();  // grows without moving anyone
        for (particle& p : particles) {
            p.x += p.vx;
            p.y += p.vy;
        }
        // Remove every tenth particle: erase_if is the standard's, relocation makes it cheap.
        std::size_t i = 0;
        relo::erase_if(particles, [&i](const particle&) { return i++ % 10 == 0; });
    }
    std::printf("%zu particles, capacity %zu, first at x = %.0f\n", particles.size(), particles.capacity(),
                particles.front().x);
    return particles.size() == expected && particles.front().trail != nullptr ? 0 : 1;
}
