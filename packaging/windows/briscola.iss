; Inno Setup 6 script of the Windows installer (docs/building.md, "Releases").
;
; tools/package.py installer compiles it, passing everything that changes from one release
; to the next (nothing here names a version or a path of the build machine):
;
;   ISCC /DAppVersion=0.1.0 /DAppVersionNumeric=0.1.0.0 /DBuildDir=C:\...\dist\briscola
;        /DOutputDir=C:\...\release /DOutputBaseName=Briscola-0.1.0-windows-x64-setup briscola.iss
;
; Per user, without administrator rights: the game goes to %LOCALAPPDATA%\Programs\Briscola,
; its Start-menu entry to the user's own Programs folder, and the uninstaller is registered for
; the user (Settings > Apps, or Control Panel > Programs). The player's settings, statistics and
; saved games (%LOCALAPPDATA%\briscola) are not the installer's: uninstalling keeps them.

#ifndef AppVersion
  #error Pass /DAppVersion=<version> (tools/package.py installer does)
#endif
#ifndef AppVersionNumeric
  #error Pass /DAppVersionNumeric=<a.b.c.d> (tools/package.py installer does)
#endif
#ifndef BuildDir
  #error Pass /DBuildDir=<the onedir build, dist\briscola> (tools/package.py installer does)
#endif
#ifndef OutputDir
  #define OutputDir "."
#endif
#ifndef OutputBaseName
  #define OutputBaseName "Briscola-" + AppVersion + "-windows-x64-setup"
#endif

[Setup]
; Identifies the game in Windows' list of installed apps across versions: never change it.
AppId={{E5D386F2-30D5-4CA8-9E5E-4CF351ABB60D}
AppName=Briscola
AppVersion={#AppVersion}
AppVerName=Briscola {#AppVersion}
AppPublisher=Briscola contributors
AppCopyright=MIT License
VersionInfoVersion={#AppVersionNumeric}
VersionInfoProductTextVersion={#AppVersion}
VersionInfoDescription=Briscola setup
; No elevation: {autopf} is then the user's %LOCALAPPDATA%\Programs.
PrivilegesRequired=lowest
DefaultDirName={autopf}\Briscola
DisableProgramGroupPage=yes
DisableDirPage=auto
UsePreviousAppDir=yes
UninstallDisplayName=Briscola
UninstallDisplayIcon={app}\briscola.exe
SetupIconFile=..\..\assets\icon\briscola.ico
OutputDir={#OutputDir}
OutputBaseFilename={#OutputBaseName}
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
CloseApplications=yes

[Languages]
Name: "english"; MessagesFile: "compiler:Default.isl"
Name: "italian"; MessagesFile: "compiler:Languages\Italian.isl"
Name: "german"; MessagesFile: "compiler:Languages\German.isl"
Name: "spanish"; MessagesFile: "compiler:Languages\Spanish.isl"

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[InstallDelete]
; An update replaces the whole build: no file of an earlier version stays in _internal.
Type: filesandordirs; Name: "{app}\_internal"

[Files]
Source: "{#BuildDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{autoprograms}\Briscola"; Filename: "{app}\briscola.exe"; WorkingDir: "{app}"
Name: "{autodesktop}\Briscola"; Filename: "{app}\briscola.exe"; WorkingDir: "{app}"; Tasks: desktopicon

[Run]
Filename: "{app}\briscola.exe"; Description: "{cm:LaunchProgram,Briscola}"; Flags: nowait postinstall skipifsilent
