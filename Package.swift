// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "Galley",
  products: [
    .library(name: "Typesetting", targets: ["Typesetting"]),
    .library(name: "CompositionalLayout", targets: ["CompositionalLayout"]),
    .library(name: "SelfSizing", targets: ["SelfSizing"]),
    .library(name: "Rasterizer", targets: ["Rasterizer"]),
    .library(name: "Geometry", targets: ["Geometry"]),
    .executable(name: "galley", targets: ["galley"]),
    // The C ABI (include/galley.h): libGalleyC.so for other languages.
    .library(name: "GalleyC", type: .dynamic, targets: ["GalleyC"]),
  ],
  targets: [
    .systemLibrary(
      name: "CFreeType", pkgConfig: "freetype2",
      providers: [.apt(["libfreetype-dev"]), .brew(["freetype"])]),
    .systemLibrary(
      name: "CHarfBuzz", pkgConfig: "harfbuzz",
      providers: [.apt(["libharfbuzz-dev"]), .brew(["harfbuzz"])]),
    .systemLibrary(
      name: "CPNG", pkgConfig: "libpng",
      providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
    .target(
      name: "CICUShims",
      linkerSettings: [.linkedLibrary("icuuc"), .linkedLibrary("icudata")]),
    .target(name: "GalleyJSON"),
    .target(
      name: "Typesetting", dependencies: ["CHarfBuzz", "CFreeType", "CICUShims", "GalleyJSON"]),
    // Point, Size and Rect: the layout model's frames and the pictures' boxes are one type.
    .target(name: "Geometry"),
    .target(name: "CompositionalLayout", dependencies: ["Geometry", "GalleyJSON"]),
    .target(
      name: "SelfSizing",
      dependencies: ["Geometry", "GalleyJSON", "Typesetting", "CompositionalLayout"]),
    .target(name: "Rasterizer", dependencies: ["Geometry", "Typesetting", "CFreeType", "CPNG"]),
    .target(
      name: "GalleyCLI",
      dependencies: [
        "GalleyJSON", "Typesetting", "CompositionalLayout", "SelfSizing", "Rasterizer",
      ]),
    .executableTarget(name: "galley", dependencies: ["GalleyCLI"]),
    .target(name: "GalleyC", dependencies: ["GalleyCLI", "Typesetting", "SelfSizing"]),
    // Reliability figures that print rather than assert (memory plateau, hostile-input timings).
    .executableTarget(
      name: "galley-stress", dependencies: ["Typesetting"], path: "Sources/GalleyStress"),
    .testTarget(
      name: "TypesettingTests", dependencies: ["Typesetting", "GalleyJSON"],
      exclude: ["Fixtures"]),
    .testTarget(
      name: "GalleyCLITests",
      dependencies: ["GalleyCLI", "GalleyJSON", "Typesetting", "SelfSizing", "Rasterizer"]),
    .testTarget(
      name: "RasterizerTests", dependencies: ["Rasterizer", "Typesetting", "SelfSizing"]),
    .testTarget(name: "GalleyJSONTests", dependencies: ["GalleyJSON"]),
    .testTarget(
      name: "CompositionalLayoutTests", dependencies: ["CompositionalLayout", "GalleyJSON"]),
    .testTarget(
      name: "SelfSizingTests",
      dependencies: ["SelfSizing", "Typesetting", "CompositionalLayout", "GalleyJSON"]),
  ]
)
