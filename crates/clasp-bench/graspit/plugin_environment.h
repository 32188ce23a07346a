// What our GraspIt plugins (planner_timing.cpp, world_check.cpp) read from the environment:
// a variable with a fallback, and comma-separated lists of files.
#pragma once

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

inline std::string environment(const char *name, const char *fallback)
{
  const char *value = getenv(name);
  return value ? value : fallback;
}

inline std::vector<std::string> split(const std::string &list)
{
  std::vector<std::string> items;
  std::stringstream stream(list);
  std::string item;
  while (std::getline(stream, item, ',')) {
    if (!item.empty()) { items.push_back(item); }
  }
  return items;
}
