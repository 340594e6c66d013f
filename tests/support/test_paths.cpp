#include "support/test_paths.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace luxel::test {
namespace fs = std::filesystem;

std::vector<std::string> sharedMapFiles(const std::string& subdir, const std::string& ext) {
    std::vector<std::string> files;
    auto root = sharedMaps();
    if (!root) return files;
    for (const auto& e : fs::directory_iterator(fs::path(*root) / subdir))
        if (e.is_regular_file() && e.path().extension() == ext) files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    return files;
}

void writeFile(const fs::path& path, const std::vector<uint8_t>& bytes) {
    fs::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

std::vector<uint8_t> bytesOf(std::string_view text) { return std::vector<uint8_t>(text.begin(), text.end()); }

void writeTextFile(const fs::path& path, std::string_view text) { writeFile(path, bytesOf(text)); }

size_t lineCount(std::string_view text) { return size_t(std::count(text.begin(), text.end(), '\n')); }

std::string readFileText(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

std::vector<uint8_t> tga1x1(uint8_t r, uint8_t g, uint8_t b) {
    std::vector<uint8_t> t(18, 0);
    t[2] = 2, t[12] = 1, t[14] = 1, t[16] = 32, t[17] = 8;  // true colour, 1x1, 32 bits, 8 alpha bits
    for (uint8_t v : {b, g, r, uint8_t(255)}) t.push_back(v);
    return t;
}

namespace {

// Every tempDir of this process lies under one folder, removed when the process exits: each run of the tests used to
// leave some 1,500 folders in /tmp (14,500 after a few sessions). A process that aborts keeps its folder to look at.
const fs::path& processTempRoot() {
    static const struct Root {
        fs::path path = fs::temp_directory_path() / ("luxel-test-" + std::to_string(::getpid()));
        ~Root() {
            std::error_code ec;
            fs::remove_all(path, ec);
        }
    } root;
    return root.path;
}

}  // namespace

std::string tempDir(const std::string& name) {
    fs::path dir = processTempRoot() / name;
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir.string();
}

CommandResult runLuxel(const std::string& args) {
    static int counter = 0;
    fs::path dir = fs::temp_directory_path() / ("luxel-run-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::create_directories(dir);
    std::string cmd = std::string("'") + LUXEL_BINARY + "' " + args + " > '" + (dir / "out").string() + "' 2> '" +
                      (dir / "err").string() + "' < /dev/null";
    int status = std::system(cmd.c_str());
    CommandResult r;
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    r.out = readFileText(dir / "out");
    r.err = readFileText(dir / "err");
    fs::remove_all(dir);
    return r;
}

nlohmann::json readJson(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error(path + ": cannot be read");
    return nlohmann::json::parse(in);
}

}  // namespace luxel::test
